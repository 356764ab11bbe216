package pagemeta

import (
	"reflect"
	"testing"
)

// TestThreadPoster: a page nothing else signs is signed by the first
// poster after its headline, named by a user-name class or a data
// attribute (not the visitor's name above the headline, not a reply's
// writer), never by a form's field. On a thread the first poster
// outranks a later "by" line naming a reply's writer (the first post's
// own "by" line shows a login the text byline passes over); under an
// article, a commenter never outranks the byline.
func TestThreadPoster(t *testing.T) {
	cases := []struct {
		file    string
		want    []string
		wantSrc string
	}{
		{"poster-class.html", []string{"birchturner"}, "poster"},
		{"author-reply-items.html", []string{"lulu30"}, "poster"},
		{"poster-form.html", nil, ""},
		{"poster-before-byline.html", []string{"potter_june"}, "poster"},
		{"poster-comments.html", []string{"Irene Valdes"}, "byline"},
	}
	for _, c := range cases {
		m := extractFile(t, c.file)
		if !reflect.DeepEqual(m.Authors, c.want) || m.Sources.Authors != c.wantSrc {
			t.Errorf("%s: authors %q from %q, want %q from %q", c.file, m.Authors, m.Sources.Authors, c.want, c.wantSrc)
		}
	}
}

// TestUserNameClass: a class token ending in "username", hyphens and
// underscores aside.
func TestUserNameClass(t *testing.T) {
	cases := map[string]bool{
		"username": true, "a bigusername": true, "PostUser-name": true, "ipsEntry__username x": true,
		"user": false, "usernames-list": false, "": false, "name": false,
	}
	for class, want := range cases {
		if got := userNameClass(class); got != want {
			t.Errorf("userNameClass(%q) = %v, want %v", class, got, want)
		}
	}
}
