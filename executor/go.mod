module github.com/frontlatch/frontlatch/executor

go 1.26.0

replace (
	github.com/frontlatch/frontlatch/compiler => ../compiler
	github.com/frontlatch/frontlatch/fixtures => ../fixtures
	github.com/frontlatch/frontlatch/shared => ../shared
	github.com/frontlatch/frontlatch/topology => ../topology
	github.com/frontlatch/frontlatch/verifier => ../verifier
)

require (
	github.com/frontlatch/frontlatch/compiler v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/fixtures v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/shared v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/topology v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/verifier v0.0.0-00010101000000-000000000000
	github.com/go-rod/rod v0.116.2
	github.com/google/go-cmp v0.7.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/net v0.62.0
	golang.org/x/text v0.43.0
	golang.org/x/time v0.16.0
)
