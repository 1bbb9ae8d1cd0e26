module github.com/frontlatch/frontlatch/verifier

go 1.26.0

replace (
	github.com/frontlatch/frontlatch/fixtures => ../fixtures
	github.com/frontlatch/frontlatch/shared => ../shared
	github.com/frontlatch/frontlatch/topology => ../topology
)

require (
	github.com/frontlatch/frontlatch/shared v0.0.0-00010101000000-000000000000
	github.com/google/go-cmp v0.7.0
)
