package singlepage

import (
	"strings"
	"testing"
)

// TestGather reads pages whose body is several blocks (sibling sections, a
// listing's items under its introduction) and checks the block model keeps
// all of them, in order, and none of the page's furniture.
func TestGather(t *testing.T) {
	tests := []struct {
		file    string
		want    []string // fragments the body holds, in order
		notWant []string
	}{
		{"clipped-sections.html", []string{"Deploy the same container", "Machines stop when traffic ends", "encrypted private network"},
			[]string{"Pricing", "All rights reserved"}},
		{"listing-intro.html", []string{"Stay up to date with our vehicle rental news", "Rental story 0", "Officials explained on day 0", "Rental story 5"},
			[]string{"Weather", "All rights reserved"}},
		{"listing-stray.html", []string{"Catalogue of tools and hardware number 0", "Catalogue of tools and hardware number 11"},
			[]string{"report a bad link"}},
		{"noscript-thread.html", []string{"Reply number 0", "Reply number 4"}, []string{"works best with JavaScript"}},
		{"short-article-related.html", []string{"Rapunzel cut all her hair off", "anyone can have short hair"},
			[]string{"Another story number 0", "A short summary"}},
		{"utility-variants.html", []string{"Functional programming is a style", "This book teaches", "Each chapter ends"}, []string{"Chapter 1"}},
		{"streamed-hidden.html", []string{"The council approved", "Engineers said", "Residents asked"}, []string{"newsletter", "Subscribe"}},
		{"main-sections.html", []string{"Build workflows that unify data", "Production apps at prototype speed", "Streamline your team",
			"Use it to build any application", "Databases with record limits", "Models run fully"},
			[]string{"Learn more", "Book a demo", "Get started", "Hear from product leaders", "All rights reserved"}},
		// A main region of sections whose feature cards (an icon, a
		// heading, a line) and checklist lines read as photo captions:
		// they are the page's; a list of teasers with pictures and a
		// counter are not.
		{"main-feature-cards.html", []string{"Build workflows that unify data", "Production apps at prototype speed",
			"Models run fully", "Private networking", "Every app gets its own network", "Metrics built in", "Backups kept for thirty days",
			"Support from real engineers"},
			[]string{"Twelve regions added", "1,204 likes", "All rights reserved"}},
		// A row of feature cards (an icon, a short heading, a line) with
		// no main element: the cards' lines are the page's, no photo
		// captions.
		{"card-features.html", []string{"Run your apps close", "Private networking", "Every app gets its own network",
			"Automatic certificates", "Metrics built in", "Dashboards for every service", "Start with one machine"},
			[]string{"All rights reserved", "Pricing"}},
		// An article's galleries (photos with a heading and a caption,
		// figures) and a row of related stories with pictures: their
		// lines stay out.
		{"gallery-related.html", []string{"The river rose above its banks", "Residents moved furniture"},
			[]string{"Water covers the quay", "Volunteers fill sandbags", "A boat crosses", "Engineers say the work", "Trains run again", "All rights reserved"}},
		// Short lines and linked lines between the article's paragraphs:
		// a checklist's items under their headings, a linked heading, an
		// item naming its link, a paragraph led by a link.
		{"span-lines.html", []string{"Packing for a week", "Shelter", "Tent", "Rainfly", "Guylines", "First aid", "Tweezers",
			"Keep the first aid kit", "1. Alpine Lodge", "Official website: Alpine Lodge", "Best for: long weekends",
			"Compact Stove Model Two from Example Outdoor Gear – we cooked", "Finally, leave a copy"},
			[]string{"Read more trail guides", "Ten lakes", "All rights reserved", "Trips"}},
		// A strong cue on each paragraph itself ("nocontextmenu": copying
		// blocked) is no region of furniture: long paragraphs are text; a
		// short credit line and a comment region still are not.
		{"classed-paragraphs.html", []string{"The shortest day of the year", "Evergreen shrubs", "Plant them before the ground freezes"},
			[]string{"Photo: Garden Weekly", "Great article", "All rights reserved", "Recipes"}},
		// A table's cells repeat ("Optional", its header on each table):
		// each is kept where it stands.
		{"repeated-cells.html", []string{"Field", "item_id", "Required", "material", "String", "Optional", "Media",
			"Field", "Type", "Requirement", "video_url", "URL", "Optional", "Fields the feed gives"},
			[]string{"All rights reserved", "Guides"}},
		// A code sample's highlighting classes its tokens ("token
		// comment"): the sample stays the article's.
		{"highlighted-code.html", []string{"deserves a history", "# start a repository", "vcs log", "manual page of each one"},
			[]string{"exactly what I needed", "All rights reserved"}},
		// A column of dates in a data table is the table's data, no run
		// of datelines parting the article.
		{"date-table.html", []string{"Home prices rose quickly", "Change in sales", "5/1/2023", "12/1/2024", "Regional differences remain large"},
			[]string{"All rights reserved", "Research"}},
		// A checklist naming some of its items by links: its linked items
		// are the list's, not navigation.
		{"linked-checklist.html", []string{"We have spent years", "Tent", "Rainfly", "Stove", "Sleeping bag", "Rain jacket", "First aid kit",
			"A copy of your route", "That is everything"},
			[]string{"Ten lakes", "All rights reserved", "Trips"}},
		// The article's sections each named after a layout word ("skip"
		// to it): together they hold the page's prose, so the name is no
		// verdict; the skip link itself stays out.
		{"named-sections.html", []string{"A mesh network is a group", "Each point talks", "Because every point", "Connect the first point"},
			[]string{"Skip to content", "All rights reserved"}},
		// A page builder names every box of the article a widget: the
		// boxes together hold the page's prose, and their short lines
		// and lists are the article's; a sign-up widget still is not.
		{"builder-widgets.html", []string{"Learning apps give", "Learning methods", "Ease of use", "Advantages:", "Short daily sessions",
			"Little grammar", "The conversation app pairs", "Annual plan: 6.99 a month"},
			[]string{"Get one tip a week", "All rights reserved"}},
		// A heading's id is its anchor, spelled from its text: no cue.
		{"anchored-headings.html", []string{"Sometimes you want", "Lifting state up", "Sharing data between components",
			"In the example above", "Social features", "The same pattern"},
			[]string{"Share on one network", "All rights reserved"}},
		// A row of teasers in a "related" box: their summaries are long,
		// the row of linked headlines with a summary each says what they
		// are.
		{"related-cards.html", []string{"If you are hosting an event", "Most of us do not plan", "A planner also costs less"},
			[]string{"Planning a small conference starts", "Selling tickets online", "A year of monthly meetups", "All rights reserved"}},
		// A site menu whose columns share a class name and, set as plain
		// text, hold much of the page's words: still a menu.
		{"menu-columns.html", []string{"The Model Two pairs", "We set up every guitar"},
			[]string{"Solidbody Guitars", "Studio Monitors", "All rights reserved"}},
	}
	for _, tt := range tests {
		checkBody(t, tt.file, gatherBody(t, tt.file), tt.want, tt.notWant)
	}
}

// gatherBody is the block model's body of testdata/gather/file (no
// second opinion).
func gatherBody(t *testing.T, file string) string {
	t.Helper()
	tr, src := parseIn(t, "gather", file)
	r, err := Extract(tr, Options{Source: src, SecondOpinionBelow: -1})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return r.Body
}

// checkBody reports the fragments of want body lacks (or holds out of
// order) and those of notWant it holds.
func checkBody(t *testing.T, name, body string, want, notWant []string) {
	t.Helper()
	at := 0
	for _, w := range want {
		i := strings.Index(body[at:], w)
		if i < 0 {
			t.Errorf("%s: body lacks %q after byte %d:\n%s", name, w, at, body)
			return
		}
		at += i + len(w)
	}
	for _, w := range notWant {
		if strings.Contains(body, w) {
			t.Errorf("%s: body holds %q:\n%s", name, w, body)
		}
	}
}
