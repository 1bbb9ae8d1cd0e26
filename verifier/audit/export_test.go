package audit

// SQLiteBusyForTest exposes sqliteBusy to the external tests.
var SQLiteBusyForTest = sqliteBusy
