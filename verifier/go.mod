module github.com/frontlatch/frontlatch/verifier

go 1.26.0

require (
	github.com/frontlatch/frontlatch/fixtures v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/shared v0.0.0-00010101000000-000000000000
)

require golang.org/x/net v0.62.0 // indirect

replace (
	github.com/frontlatch/frontlatch/fixtures => ../fixtures
	github.com/frontlatch/frontlatch/shared => ../shared
	github.com/frontlatch/frontlatch/topology => ../topology
)
