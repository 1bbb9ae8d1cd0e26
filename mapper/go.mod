module github.com/frontlatch/frontlatch/mapper

go 1.26.0

require (
	github.com/andybalholm/cascadia v1.3.5
	github.com/frontlatch/frontlatch/fixtures v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/shared v0.0.0-00010101000000-000000000000
	github.com/frontlatch/frontlatch/topology v0.0.0-00010101000000-000000000000
	github.com/go-rod/rod v0.116.2
	github.com/google/go-cmp v0.7.0
	github.com/temoto/robotstxt v1.1.2
	golang.org/x/net v0.62.0
	golang.org/x/time v0.16.0
)

require (
	github.com/ysmood/fetchup v0.2.3 // indirect
	github.com/ysmood/goob v0.4.0 // indirect
	github.com/ysmood/got v0.40.0 // indirect
	github.com/ysmood/gson v0.7.3 // indirect
	github.com/ysmood/leakless v0.9.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)

replace (
	github.com/frontlatch/frontlatch/fixtures => ../fixtures
	github.com/frontlatch/frontlatch/shared => ../shared
	github.com/frontlatch/frontlatch/topology => ../topology
)
