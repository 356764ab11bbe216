package siteextract

import (
	"context"
	"errors"
	"fmt"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// OneResult is the extraction of one page that is not in the store.
type OneResult struct {
	Result singlepage.Result
	// Run is the learning run whose templates were consulted, 0 for none;
	// Cluster is the template the page was compared with, -1 for none, at
	// normalised tree edit distance Distance from its medoid.
	Run      int64
	Cluster  int
	Distance float64
	// Note says how the method was chosen.
	Note string
}

// One extracts a page that is not in the store (a file, a URL fetched
// once) against the templates learned for site: the page is assigned to
// the nearest template by tree edit distance to the medoids
// (cluster.Model.Assign) and compared with that medoid (heuristics.Extract,
// with the cluster's rules); a page far from every template, or a site
// without learned templates, gets the single-page method. in.Page, in.Src
// and in.Visible are the page; in.Medoid, in.MedoidVisible and in.Rules
// are set here. Of opt, Extract and Visible are used.
func One(ctx context.Context, st store.Store, site string, in heuristics.Input, opt Options) (*OneResult, error) {
	out := &OneResult{Cluster: -1}
	tpl, err := LoadTemplates(ctx, st, site)
	switch {
	case errors.Is(err, ErrNoTemplates):
		out.Note = fmt.Sprintf("site %s has no learned templates", site)
		return out, out.extract(in, opt.Extract)
	case err != nil:
		return nil, err
	}
	out.Run = tpl.Run.ID
	model, err := sitelearn.LoadModel(ctx, st, tpl.Run, tpl.Clusters, sitelearn.Options{})
	if errors.Is(err, sitelearn.ErrNoTemplate) {
		out.Note = fmt.Sprintf("run %d: %v", tpl.Run.ID, err)
		return out, out.extract(in, opt.Extract)
	}
	if err != nil {
		return nil, fmt.Errorf("site %s: %w", site, err)
	}
	page := cluster.Page{Name: in.Page.Name, Hash: store.ContentHash(in.Src), Tree: in.Page.View(treediff.TagView)}
	as, err := model.Assign(ctx, []cluster.Page{page})
	if err != nil {
		return nil, fmt.Errorf("site %s: %w", site, err)
	}
	a := as[0]
	if a.Far {
		out.Note = fmt.Sprintf("run %d: %s", tpl.Run.ID, a.Reason)
		return out, out.extract(in, opt.Extract)
	}
	if err := withMedoid(ctx, st, tpl, a.Cluster, &in, opt); err != nil {
		return nil, fmt.Errorf("site %s: medoid: %w", site, err)
	}
	out.Cluster, out.Distance = a.Cluster, a.Distance
	out.Note = fmt.Sprintf("run %d: template %d, normalised tree edit distance %.3f to its medoid", tpl.Run.ID, a.Cluster, a.Distance)
	return out, out.extract(in, opt.Extract)
}

// withMedoid sets in's medoid, the stored medoid of the template cluster
// clusterID of tpl parsed (its visible text too when opt reads it), and
// the cluster's rules.
func withMedoid(ctx context.Context, st store.Store, tpl *Templates, clusterID int, in *heuristics.Input, opt Options) error {
	med, err := st.Page(ctx, tpl.Medoids[clusterID])
	if err != nil {
		return err
	}
	if in.Medoid, err = treediff.Parse(med.Name(), med.HTML(), treediff.ParseOptions{ContentType: med.ContentType}); err != nil {
		return err
	}
	if opt.Visible != nil {
		in.MedoidVisible, _ = opt.Visible(med) // no layout: read it whole
	}
	in.Rules = tpl.Rules[clusterID]
	return nil
}

func (o *OneResult) extract(in heuristics.Input, opt heuristics.ExtractOptions) error {
	r, err := heuristics.Extract(in, opt)
	o.Result = r
	return err
}
