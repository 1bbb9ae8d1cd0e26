package mcpserver

// executorReasons lists the reasons of an executor refusal that the gate's
// error does not already carry.
func executorReasons(err error) []Reason {
	return nil
}
