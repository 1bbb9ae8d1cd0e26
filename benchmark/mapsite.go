package benchmark

import (
	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/topology"
)

// mapOptions are the mapper options of a benchmark run: offline, in the
// worker's reused tab, with the fixture name as the slug, so action ids
// read like the committed graphs (clinic01:booking:…) whatever port the
// site was served on. onPage, when given, sees every page opened.
func mapOptions(sess *topology.Session, name string, onPage ...func(string)) mapper.Options {
	o := mapper.Options{Session: sess, Offline: true, SiteSlug: name}
	if len(onPage) > 0 {
		o.OnPage = onPage[0]
	}
	return o
}
