package benchmark

import (
	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/topology"
)

// mapOptions are the mapper options of a benchmark run: offline, in the
// shared browser. mapAll sets each site's slug to its fixture name, so
// action ids read like the committed graphs (clinic01:booking:…) whatever
// port the site was served on.
func mapOptions(b *topology.Browser) mapper.Options {
	return mapper.Options{Browser: b, Offline: true}
}
