package singlepage

import "testing"

// TestCalibrationOrders checks the fitted calibration on evidence that
// differs in one respect: agreeing with go-trafilatura, a longer body, a
// higher own confidence never lower the confidence much.
func TestCalibrationOrders(t *testing.T) {
	base := Evidence{Raw: 0.9, Method: MethodSingle, Agreement: 0.2, BodyWords: 400, PageWords: 1000,
		PageLinkShare: 0.2, BodyLinkShare: 0.02, TypeProbs: []float64{1, 0, 0, 0, 0, 0, 0}, Chooser: 0.1, Block: -1,
		Shape: Shape{Lines: 12}}
	agree := base
	agree.Agreement = 0.98
	low := confidenceModel.confidence(base.Vector(), base.Raw)
	high := confidenceModel.confidence(agree.Vector(), agree.Raw)
	if high <= low {
		t.Errorf("agreeing with go-trafilatura: %.3f, disagreeing: %.3f", high, low)
	}
	if high < 0.9 {
		t.Errorf("an article both extractors agree on: confidence %.3f", high)
	}
	for _, c := range []float64{low, high} {
		if c < 0 || c > 1 {
			t.Errorf("confidence %v outside [0, 1]", c)
		}
	}
	if got := (calibrator{}).confidence(base.Vector(), 0.42); got != 0.42 {
		t.Errorf("without a model: %v, want the raw 0.42", got)
	}
}
