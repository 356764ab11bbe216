package treediff_test

import (
	"fmt"

	"github.com/gleaner/gleaner/treediff"
)

func ExampleDistance() {
	a, _ := treediff.ParseBracket("a", "{html{body{div{p}{p}}}}")
	b, _ := treediff.ParseBracket("b", "{html{body{div{p}}{span}}}")
	d, err := treediff.Distance(a, b, treediff.Options{})
	fmt.Println(d, err)
	// Output: 2 <nil>
}

func ExampleMapping() {
	a, _ := treediff.Parse("a.html", []byte("<h1>Old title</h1><p>Same text</p>"), treediff.ParseOptions{})
	b, _ := treediff.Parse("b.html", []byte("<h1>New title</h1><p>Same text</p>"), treediff.ParseOptions{})
	opt := treediff.Options{CompareKinds: true}
	d, pairs, _ := treediff.Mapping(a.View(treediff.TokenView), b.View(treediff.TokenView), opt)
	fmt.Println("distance", d)
	for _, p := range pairs {
		if op := p.Op(opt); op != "match" {
			fmt.Println(op, p.A.Label, "->", p.B.Label, "at", p.A.Path())
		}
	}
	// Output:
	// distance 1
	// rename Old -> New at /html/body[1]/h1[1]/text()[1]
}
