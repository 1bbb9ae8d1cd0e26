// Package shared is the Frontlatch Action Graph contract, version 0.1: the one
// interface the mapper writes, the compiler reads, the verifier gates on and an
// executor acts from.
//
// The contract is a list of what a website lets a customer get done (book,
// quote, call back, contact, enquire), where each action lives, what it needs
// field by field, and what happens when it runs. Every key is always present
// on output (absence is spelled null), every state that implies data is a
// sealed union, and every enumerated field draws from a closed vocabulary
// declared once in vocab.go and expanded by go generate.
//
// Read is at once the reader, the validator and the canonicaliser; Write
// re-validates and refuses to write an invalid graph. AssertLiveExecutionAllowed
// is the consent gate: it takes the raw bytes of one action and re-derives,
// on every call, whether its owner has confirmed what it does today.
// Completeness says whether our map of an action is complete, which is a
// different question from whether it may run.
//
// The package does no I/O beyond bytes, save ReadDocumentFile, which opens the
// one file it is given, and imports no other Frontlatch module.
package shared
