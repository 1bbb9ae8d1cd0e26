package shared

// SchemaVersion is the contract version this package reads and writes. A
// document carrying any other schemaVersion is refused whole.
const SchemaVersion = "0.1"

// ModuleVersion is the release of this Go module (tagged shared/vX.Y.Z).
const ModuleVersion = "0.1.0"
