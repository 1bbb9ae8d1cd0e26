// Command frontlatch maps small-business websites into Action Graphs,
// checks and formats graphs, compiles them into agent formats, and runs the
// benchmark over the built-in fifteen-site set.
//
// Exit codes: 0 success; 1 the work failed (an invalid graph, a page that did
// not load); 2 usage or I/O error.
package main
