package eval_test

import (
	"fmt"

	"github.com/gleaner/gleaner/eval"
)

func ExampleScorePage() {
	gold := "Harbour reopens\n\nThe harbour reopened on Friday after three weeks of repairs."
	// The extraction missed the headline and kept a menu line. Shingles:
	// 9 in the gold, 10 predicted, 7 shared: P = 7/10, R = 7/9. Words:
	// 11·1 / sqrt(14·13) = 0.815.
	pred := "Home News Sport\n\nThe harbour reopened on Friday after three weeks of repairs."
	p := eval.ScorePage("harbour", "example", gold, pred)
	fmt.Printf("cos %.3f exact %v\n", p.Cos, p.Exact())
	fmt.Printf("P %.3f R %.3f F1 %.3f\n", p.Precision, p.Recall, p.F1)
	fmt.Println(p.Relation)
	// Output:
	// cos 0.815 exact false
	// P 0.700 R 0.778 F1 0.737
	// other
}

func ExampleSummarize() {
	pages := []eval.PageScore{
		eval.ScorePage("a", "s", "one two three four five", "one two three four five"),
		eval.ScorePage("b", "s", "one two three four five", "one two three four"),
	}
	// b: 1 of 2 gold shingles, cos 4/sqrt(5·4) = 0.894 < 0.9.
	s := eval.Summarize(pages)
	fmt.Printf("exactitude %.0f%% P %.3f R %.3f F1 %.3f accuracy %.2f\n", 100*s.Exactitude, s.Precision, s.Recall, s.F1, s.Accuracy)
	fmt.Println(s.Equal, s.Inside, s.Contains)
	// Output:
	// exactitude 50% P 1.000 R 0.750 F1 0.857 accuracy 0.50
	// 1 1 0
}
