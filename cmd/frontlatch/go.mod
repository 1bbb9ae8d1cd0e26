module github.com/frontlatch/frontlatch/cmd/frontlatch

go 1.26

require (
	github.com/frontlatch/frontlatch/shared v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/topology v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/mapper v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/compiler v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/fixtures v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/benchmark v0.0.0-00010101000000-000000000000
)

replace (
	github.com/frontlatch/frontlatch/shared => ../../shared
	github.com/frontlatch/frontlatch/topology => ../../topology
	github.com/frontlatch/frontlatch/mapper => ../../mapper
	github.com/frontlatch/frontlatch/compiler => ../../compiler
	github.com/frontlatch/frontlatch/fixtures => ../../fixtures
	github.com/frontlatch/frontlatch/benchmark => ../../benchmark
)
