// Package formasaurus measures the mapper's field and form classifier on
// the Formasaurus development corpus: real pages (2015–2016 crawls, many
// languages) with hand labels for every <form> and every visible named
// field (MIT licence, Scrapinghub / TeamHG-Memex). The corpus is read in
// place from ../shared/corpora/formasaurus-dev and never copied.
//
// Run serves the saved pages on 127.0.0.1 as UTF-8, loads each in Chromium
// with third-party requests blocked, extracts (mapper/extract) and
// classifies (mapper/classify) every form, lines the labelled forms up with
// the forms the browser built (dropping forms the HTML parser never builds:
// inside <noscript>, or nested in an open form — DroppedForms), and scores
// field semantics, honeypot recall, form purpose and customer-action
// precision/recall/F1. Pages are split into a fixed dev and holdout set by
// a hash of the file name, so tuning on one shows up as a gap on the other.
// The command benchmark/cmd/formeval writes the figures to the "classifier"
// key of benchmark/results.json. Method describes the scoring rules.
package formasaurus
