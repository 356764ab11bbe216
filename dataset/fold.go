package dataset

import "hash/fnv"

// SiteFold assigns a site to one of folds cross-validation folds by a
// hash of its name: a site's pages always fall in the same fold, so a
// model is never scored on a site it was fitted on. The same site gets
// the same fold in every fitting command and run.
func SiteFold(site string, folds int) int {
	if folds <= 0 {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(site))
	return int(h.Sum32() % uint32(folds))
}
