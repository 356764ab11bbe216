package terms_test

import (
	"fmt"

	"github.com/gleaner/gleaner/chain/terms"
)

func ExampleDistrib_Proximity() {
	d := terms.NewDistrib()
	for _, c := range []string{"(présenter, OBJ)", "(apparition, DE)"} {
		d.Add("syndrome", c)
		d.Add("détresse respiratoire", c)
	}
	d.Add("douleur", "(présenter, OBJ)")
	d.Add("syndrome", "(diminuer, OBJ)")
	p := d.Proximity("détresse respiratoire", "syndrome")
	fmt.Printf("a=%d prox=%.2f j1=%.2f j2=%.2f\n", p.A, p.Prox, p.J1, p.J2)
	// Output: a=2 prox=1.28 j1=1.00 j2=0.67
}

func ExampleCValue() {
	for _, t := range terms.CValue(map[string]int{"taux d'intérêt": 4, "taux": 6}) {
		fmt.Printf("%s %.2f\n", t.Term, t.CValue)
	}
	// Output:
	// taux d'intérêt 6.34
	// taux 2.00
}
