module github.com/frontlatch/frontlatch/executor

go 1.26.0

replace (
	github.com/frontlatch/frontlatch/fixtures => ../fixtures
	github.com/frontlatch/frontlatch/shared => ../shared
	github.com/frontlatch/frontlatch/topology => ../topology
	github.com/frontlatch/frontlatch/verifier => ../verifier
)
