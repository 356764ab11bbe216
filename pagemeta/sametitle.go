package pagemeta

import "strings"

// titleForms maps typographic quotes, dashes, the non-breaking space
// and the ellipsis to their plain forms.
var titleForms = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201c", `"`, "\u201d", `"`,
	"\u2013", "-", "\u2014", "-", "\u00a0", " ", "\u2026", "...")

// SameTitle reports whether got is the title want, as headlines are
// judged against annotated titles: case-insensitively, with typographic
// quotes and dashes as their plain forms and spaces collapsed. An empty
// got is never the title.
func SameTitle(want, got string) bool {
	return got != "" && titleKey(want) == titleKey(got)
}

// titleKey is s as SameTitle compares it.
func titleKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(titleForms.Replace(s)), " "))
}
