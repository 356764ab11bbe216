module github.com/gleaner/gleaner

go 1.26.0

require (
	github.com/PuerkitoBio/goquery v1.13.0 // indirect
	github.com/abadojack/whatlanggo v1.0.1 // indirect
	github.com/andybalholm/cascadia v1.3.4 // indirect
	github.com/blevesearch/snowballstem v0.9.0 // indirect
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/chromedp/chromedp v0.23.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/mattn/go-sqlite3 v1.14.53 // indirect
	github.com/muesli/clusters v0.0.0-20200529215643-2700303c1762 // indirect
	github.com/temoto/robotstxt v1.1.2 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
