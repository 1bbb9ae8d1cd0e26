package shared

// MaxToolNameLength is the WebMCP and MCP limit on a tool name's length.
const MaxToolNameLength = 128

// ValidToolName reports whether name satisfies the WebMCP and MCP rules
// for a tool name: 1–128 characters, each an ASCII letter or digit, "_",
// "-" or ".". The 0.1 reader does not enforce it on Access.ToolName (a
// mapped page may register any name); the mapper leaves out tools whose
// names break it and the compiler only writes names that keep it.
func ValidToolName(name string) bool {
	if len(name) == 0 || len(name) > MaxToolNameLength {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !ToolNameChar(name[i]) {
			return false
		}
	}
	return true
}

// ToolNameChar is the one statement of the characters a tool name may use.
func ToolNameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}
