package mcpserver

import "time"

// SetIdleTimeout sets the HTTP server's idle timeout until the returned
// function restores it.
func SetIdleTimeout(d time.Duration) (restore func()) {
	old := idleTimeout
	idleTimeout = d
	return func() { idleTimeout = old }
}

// MaxClients is how many clients each rate-limit table holds.
const MaxClients = maxClients
