package pagemeta

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
		{"Updated on 19-Dec-2025", "2025-12-19"},
		// Year first, as citations write it.
		{"2023 Jan 7", "2023-01-07"},
		{"Cureus. 2024 Jun 30;28(2):43-51.", "2024-06-30"},
		{"1999 mayo 2", "1999-05-02"},
		// An event's span of days is not a date of the page.
		{"Summit, Lyon: 16-19 March 2026", ""},
		{"3 – 5 May 2024", ""},
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

func TestNormalizeDateLanguages(t *testing.T) {
	cases := []struct{ in, want string }{
		{"28. Februar 2026, 20:36 Uhr", "2026-02-28T20:36"},
		{"28 February 2026, 20:22", "2026-02-28T20:22"},
		{"Publié le 3 mars 2025 à 14h05", "2025-03-03T14:05"},
		{"1er août 2024", "2024-08-01"},
		{"Publicado el 5 de febrero de 2024 a las 10:30", "2024-02-05T10:30"},
		{"12 febbraio 2023 ore 8:15", "2023-02-12T08:15"},
		{"4 de março de 2022", "2022-03-04"},
		{"7 mei 2021 om 09:00", "2021-05-07T09:00"},
		{"15 października 2020, 18:40", "2020-10-15T18:40"},
		{"2017-03-10 09:58:03", "2017-03-10T09:58:03"},
		{"发布时间：2017-03-10 09:58:03", "2017-03-10T09:58:03"},
		{"Aktualisiert am 02.01.2024, 07:45 Uhr MEZ", "2024-01-02T07:45+01:00"},
		// The first date written wins, whatever its form.
		{"Published 02/03/2024, updated March 9, 2024", "2024-02-03"},
		// A word holding a month name is not one.
		{"Marseille 12 2020", ""},
	}
	for _, c := range cases {
		if got := NormalizeDate(c.in); got != c.want {
			t.Errorf("NormalizeDate(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNormalizeDateVersions: a version number, a build's or a part of a
// longer figure is no date; a date beside one is read.
func TestNormalizeDateVersions(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Powered by vBoard® Version 3.8.11", ""},
		{"10. Lang 8.4.13 Release Announcement", ""},
		{"Firmware v 2.10.24 is out", ""},
		{"Build 1.2.2024", ""},
		{"Addresses 192.168.12.24 and 10.1.1.24", ""},
		{"Release 4.12.05.3", ""},
		// Dates written with dots pad their day and month or give their
		// year whole.
		{"Posted 03.08.11", "2011-08-03"},
		{"am 3.8.2011", "2011-08-03"},
		{"Version 3.8.11, released 12.09.2024", "2024-09-12"},
	}
	for _, c := range cases {
		if got := NormalizeDate(c.in); got != c.want {
			t.Errorf("NormalizeDate(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
