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

// TestCalibrationBlockDisagrees checks the fitted calibration on a
// template's body (pair diff) the block model's body agrees with in part
// only: one of the two took the wrong part of the page, the confidence
// falls well under that of a body both agree on (0.89 and 0.97 when
// fitted).
func TestCalibrationBlockDisagrees(t *testing.T) {
	agree := Evidence{Raw: 0.8, Method: MethodPair, Agreement: -1, BodyWords: 430, PageWords: 990,
		PageLinkShare: 0.3, BodyLinkShare: 0.05, TypeProbs: []float64{1, 0, 0, 0, 0, 0, 0}, Chooser: -1, Block: 0.98,
		Shape: Shape{Lines: 14}}
	part := agree
	part.Block = 0.55
	high := confidenceModel.confidence(agree.Vector(), agree.Raw)
	low := confidenceModel.confidence(part.Vector(), part.Raw)
	if low >= high-0.05 {
		t.Errorf("block agreement 0.55: %.3f, 0.98: %.3f", low, high)
	}
}

func TestMeasuredUnder(t *testing.T) {
	tests := []struct{ x, bar, want float64 }{
		{-1, 0.7, 0}, {0.9, 0.7, 0}, {0.7, 0.7, 0}, {0.5, 0.7, 1}, {0, 0.7, 1},
	}
	for _, tt := range tests {
		if got := measuredUnder(tt.x, tt.bar); got != tt.want {
			t.Errorf("measuredUnder(%v, %v) = %v, want %v", tt.x, tt.bar, got, tt.want)
		}
	}
}
