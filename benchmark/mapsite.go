package benchmark

import (
	"context"

	"github.com/go-rod/rod"

	"github.com/frontlatch/frontlatch/mapper"
	"github.com/frontlatch/frontlatch/shared"
)

// mapSite maps one fixture site in the shared browser. The site's fixture
// name is its slug, so action ids read like the committed graphs
// (clinic01:booking:…) whatever port the site was served on.
func mapSite(ctx context.Context, b *rod.Browser, name, url string) (*shared.ActionGraph, error) {
	return mapper.Map(ctx, url, mapper.Options{Browser: b, Offline: true, SiteSlug: name})
}
