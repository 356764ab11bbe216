package singlepage

import "github.com/gleaner/gleaner/treediff"

// maxAnnouncedItemWords bounds the words of a linked item of an announced
// list (announcedLists): a changelog's entry or a reference's title, not
// a teaser's headline and summary.
const maxAnnouncedItemWords = 2 * maxLinkedHeading

// announcedLists reads the linked items of a list that a sentence of the
// text announces right above it ("Many patches were sent for review:",
// "The following changes were merged:") as short lines, judged by their
// neighbours, not as navigation: the list is what the sentence says, each
// item naming what it links to. A menu or a box of related links is
// announced by a label ("Related", "See also:"), not by a sentence, and
// stays navigation. Each list's announcing line is looked up once.
func (p *page) announcedLists() {
	announced := map[*treediff.Node]bool{}
	for i, b := range p.blocks {
		l := listOf(b)
		if l == nil || b.words > maxAnnouncedItemWords || !p.linkedItem(b) {
			continue
		}
		ok, seen := announced[l]
		if !seen {
			j := p.lineBefore(l, i)
			ok = j >= 0 && p.blocks[j].class != classBad && !p.blocks[j].cue && announces(p.blocks[j])
			announced[l] = ok
		}
		if ok {
			b.class = classShort
		}
	}
}
