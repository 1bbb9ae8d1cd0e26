module github.com/frontlatch/frontlatch/mapper

go 1.26

require (
	github.com/frontlatch/frontlatch/shared v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/topology v0.0.0-00010101000000-000000000000
)

replace (
	github.com/frontlatch/frontlatch/shared => ../shared
	github.com/frontlatch/frontlatch/topology => ../topology
)
