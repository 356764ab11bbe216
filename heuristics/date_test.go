package heuristics

import "testing"

func TestNormalizeDate(t *testing.T) {
	cases := []struct{ in, want string }{
		{"2024-03-01T10:00:00Z", "2024-03-01T10:00:00Z"},
		{"2024-03-01T10:00:00.123+01:00", "2024-03-01T10:00:00+01:00"},
		{"2024-03-01T10:00:00+0100", "2024-03-01T10:00:00+01:00"},
		{"2022-01-02T08:00", "2022-01-02T08:00"},
		{"2023-07-04", "2023-07-04"},
		{"2023-07-04 18:30:00", "2023-07-04T18:30:00"},
		{"20230704", "2023-07-04"},
		{"Tue, 04 Jul 2023 18:30:00 GMT", "2023-07-04T18:30:00Z"},
		{"Tue, 04 Jul 2023 18:30:00 EDT", "2023-07-04T18:30:00-04:00"},
		{"12/28/2005 5:35:18 PM", "2005-12-28T17:35:18"},
		{"28/12/2005", "2005-12-28"},
		{"Posted 27.05.02, 12:00 AM ET", "2002-05-27T00:00"},
		{"Published March 2, 2024 at 3:15 p.m. EST", "2024-03-02T15:15-05:00"},
		{"Updated: Sept. 14th 2019", "2019-09-14"},
		{"Monday 2 March 2024 09:05 GMT", "2024-03-02T09:05Z"},
		{"14 of June, 2010", "2010-06-14"},
		// Not dates: never a zero date, never a headline.
		{"", ""},
		{"0001-01-01T00:00:00Z", ""},
		{"3 hours ago", ""},
		{"Top 10 stories of 2019", ""},
		{"May the best team win", ""},
		{"February 31, 2020", ""},
		{"1 in 5 adults 18/24 say", ""},
	}
	for _, c := range cases {
		if got := NormalizeDate(c.in); got != c.want {
			t.Errorf("NormalizeDate(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
