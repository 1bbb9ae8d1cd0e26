module github.com/frontlatch/frontlatch/compiler

go 1.26

require (
	github.com/frontlatch/frontlatch/shared v0.0.0-00010101000000-000000000000
)

replace (
	github.com/frontlatch/frontlatch/shared => ../shared
)
