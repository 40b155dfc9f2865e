package audit

// MaskClocks is b with every date and time the audit takes for a clock (clockChange's forms)
// replaced by mask: two requests that differ only in when they were sent read the same.
// diff-recordings compares two recordings made at different times by it.
func MaskClocks(b, mask []byte) []byte { return clockRE().ReplaceAll(b, mask) }
