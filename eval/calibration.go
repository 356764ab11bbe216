package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gleaner/gleaner/singlepage"
)

// ConfidencePoint is one page's reported confidence and the word F1 its
// scored text reached.
type ConfidencePoint struct {
	Confidence, F1 float64
}

// CalibrationRow is one confidence decile [Low, High) (the last one holds
// 1.0): its pages, their mean word F1 and the share of them at word F1 ≥
// GoodF1.
type CalibrationRow struct {
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	Pages  int     `json:"pages"`
	MeanF1 float64 `json:"mean_f1"`
	Good   float64 `json:"good"`
}

// Calibration says whether confidence predicts quality: per confidence
// decile the pages and their mean word F1, and how many pages were reported
// at confidence ≥ HighConfidence, with the share of them at word F1 ≥
// GoodF1 (Gleaner's goal: 95 %).
type Calibration struct {
	Deciles   []CalibrationRow `json:"deciles"`
	Confident int              `json:"confident"`
	// ConfidentGood is the share of the Confident pages with word F1 ≥
	// GoodF1 (0 without such pages).
	ConfidentGood float64 `json:"confident_good"`
}

// Thresholds of Calibration.
const (
	HighConfidence = 0.9
	GoodF1         = 0.8
)

// CalibrationTable builds the calibration of the (confidence, F1) pairs.
func CalibrationTable(ps []ConfidencePoint) Calibration {
	c := Calibration{Deciles: make([]CalibrationRow, 10)}
	sums := make([]float64, 10)
	good := make([]int, 10)
	confGood := 0
	for i := range c.Deciles {
		c.Deciles[i].Low, c.Deciles[i].High = float64(i)/10, float64(i+1)/10
	}
	for _, p := range ps {
		d := min(max(int(p.Confidence*10), 0), 9)
		c.Deciles[d].Pages++
		sums[d] += p.F1
		if p.F1 >= GoodF1 {
			good[d]++
		}
		if p.Confidence >= HighConfidence {
			c.Confident++
			if p.F1 >= GoodF1 {
				confGood++
			}
		}
	}
	for i := range c.Deciles {
		if n := c.Deciles[i].Pages; n > 0 {
			c.Deciles[i].MeanF1 = sums[i] / float64(n)
			c.Deciles[i].Good = float64(good[i]) / float64(n)
		}
	}
	if c.Confident > 0 {
		c.ConfidentGood = float64(confGood) / float64(c.Confident)
	}
	return c
}

// WriteCalibration prints the calibration table of one method.
func WriteCalibration(w io.Writer, c Calibration) error {
	return WriteCalibrationSideBySide(w, []string{""}, c)
}

// WriteCalibrationSideBySide prints calibration tables side by side, one
// column group per name (methods, or a confidence before and after
// calibration), then each one's share of good pages at high confidence.
func WriteCalibrationSideBySide(w io.Writer, names []string, cs ...Calibration) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "confidence\t")
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t%s\t%s\t", strings.TrimSpace("pages "+n), strings.TrimSpace("mean word F1 "+n), strings.TrimSpace(fmt.Sprintf("F1≥%.1f %s", GoodF1, n)))
	}
	fmt.Fprintln(tw)
	for d := range 10 {
		fmt.Fprintf(tw, "[%.1f, %.1f%s\t", float64(d)/10, float64(d+1)/10, map[bool]string{true: "]", false: ")"}[d == 9])
		for _, c := range cs {
			r := c.Deciles[d]
			fmt.Fprintf(tw, "%d\t%.3f\t%.0f%%\t", r.Pages, r.MeanF1, 100*r.Good)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, c := range cs {
		_, err := fmt.Fprintf(w, "%s ≥ %.1f: %d pages, %.1f%% of them at word F1 ≥ %.1f\n",
			strings.TrimSpace(names[i]+" confidence"), HighConfidence, c.Confident, 100*c.ConfidentGood, GoodF1)
		if err != nil {
			return err
		}
	}
	return nil
}

// wordF1 is WCXB's word F1 of an extraction against its gold.
// TODO(lead): use eval's WordF1 once merged.
func wordF1(got, gold string) float64 { return singlepage.WordOverlap(got, gold) }
