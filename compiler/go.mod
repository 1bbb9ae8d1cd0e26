module github.com/frontlatch/frontlatch/compiler

go 1.26.0

require (
	github.com/frontlatch/frontlatch/shared v0.0.0-00010101000000-000000000000
	github.com/google/go-cmp v0.7.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
)

require golang.org/x/net v0.62.0

require (
	github.com/frontlatch/frontlatch/fixtures v0.0.0-00010101000000-000000000000
	golang.org/x/text v0.43.0 // indirect
)

replace github.com/frontlatch/frontlatch/shared => ../shared

replace github.com/frontlatch/frontlatch/fixtures => ../fixtures
