package singlepage

import "github.com/gleaner/gleaner/treediff"

// Data tables: a grid of many short cells, most without links (figures,
// names, a comparison; a column may name what it links to), is what an
// article shows in a table, as it shows a list; a menu or a calendar set
// as a table is links throughout. Each of the cells is too
// short to judge alone, and read as short lines a big table weighs
// against the article around it: the article stops at the table, or its
// text after the table is lost.

// minDataCells is the least cells of a data table.
const minDataCells = 6

// dataCellWeight is what a word of a data table's short cell adds to the
// weight of an element holding it (a sentence's word adds 0.5, an
// article block's 1).
const dataCellWeight = 0.5

// tableStats are the aggregates of one table's blocks.
type tableStats struct {
	blocks, cells, linked int
	last                  *treediff.Node // the cell of the table's last block
	bad                   bool           // a block under a cue, or code
	header                bool           // a header cell (<th>)
}

// markDataTables marks the short cells of the page's data tables (see
// tableStats.data). A cell judged navigation by its links alone (a short
// link naming a row's item) is one of its short cells. Linear in the
// number of blocks.
func (p *page) markDataTables() {
	stats := map[*treediff.Node]*tableStats{}
	for _, b := range p.blocks {
		if b.table == nil {
			continue
		}
		s := stats[b.table]
		if s == nil {
			s = &tableStats{}
			stats[b.table] = s
		}
		s.add(b)
	}
	for _, b := range p.blocks {
		if b.table == nil || b.class != classShort && !p.linkedCell(b) {
			continue
		}
		s := stats[b.table]
		if s.data() {
			b.class, b.dataCell = classShort, true
		}
	}
}

// linkedCell reports a short cell judged navigation by its links alone:
// a link naming the row's item ("Company Inc.").
func (p *page) linkedCell(b *block) bool {
	return p.linkedItem(b) && b.words <= maxLinkedHeading
}

// data reports a data table: at least minDataCells cells, each a line or
// two (a layout table's cell holds the page's paragraphs), none under a
// boilerplate cue or code. Cells opening with a link are at most half,
// under a header row (<th>): a column of links under a header names the
// rows' items; without one, a column of times beside a column of links
// is a list of headlines.
func (s *tableStats) data() bool {
	linksOK := s.linked == 0 || s.header && 2*s.linked <= s.cells
	return s.cells >= minDataCells && s.blocks <= 2*s.cells && linksOK && !s.bad
}

// add counts block b, the next of the table's blocks.
func (s *tableStats) add(b *block) {
	s.blocks++
	if b.cell != s.last {
		// A cell's blocks are consecutive.
		s.cells, s.last = s.cells+1, b.cell
		if b.linkWords > 0 {
			s.linked++
		}
	}
	s.bad = s.bad || b.cue || b.weak || b.code
	s.header = s.header || b.cell != nil && b.cell.Label == "th"
}
