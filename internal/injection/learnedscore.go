package injection

import (
	"fmt"
	"slices"

	"github.com/flowd-dev/flowd/internal/injection/learned"
)

// learnedRule names the detection of the learned scorer (package
// learned): the window of words it scored highest, with its probability
// as the severity.
const learnedRule = "learned-classifier"

// The learned scorer knows words, not intent: on its own it only ever
// flags (a notice; the content is unchanged), and it never raises a
// field the rules already score: redaction and quarantine stay the
// rules' decision. Windows below learnedFlagP are not reported.
const learnedFlagP = 0.995

// learnedMaxBytes bounds what the learned scorer reads of one message,
// field by field in order (a field that would pass the bound is left to
// the rules): it costs about as much per byte as the rules, and large
// results must keep their throughput.
const learnedMaxBytes = 64 << 10

// findLearned scores the text with the model and records its best window
// when the model is sure enough. As a language finding it is discounted
// like the rules' when quoted in a discussion of attacks or written in a
// code block, which can take it below learnedFlagP.
func (f *fieldScan) findLearned(m *learned.Model) {
	w := m.Score(f.t)
	if w.P < learnedFlagP {
		return
	}
	f.finds = append(f.finds, finding{rule: learnedRule, tier: Contextual, kind: language, sev: w.P, a: w.Start, b: w.End,
		note: fmt.Sprintf("learned scorer, p=%.3f", w.P)})
}

// withLearned combines a field's rule score with the learned scorer's
// probability p (after discounts): a pass becomes a flag.
func (s *Scanner) withLearned(score, p float64) float64 {
	if p >= learnedFlagP {
		return max(score, s.o.Thresholds.Flag)
	}
	return score
}

// waiveLearned drops the learned scorer's window where it overlaps a
// detection a waiver silenced in this field: the user has said that
// this server's text of that kind is fine, and the model reading the
// same words would undo the waiver.
func (st *scanState) waiveLearned(kept []finding, path string) []finding {
	var waived []Detection
	for _, d := range st.res.Waived {
		if d.Field == path && d.Rule != learnedRule {
			waived = append(waived, d)
		}
	}
	if len(waived) == 0 {
		return kept
	}
	out := kept[:0]
	for _, fd := range kept {
		if fd.rule == learnedRule && slices.ContainsFunc(waived, func(d Detection) bool { return d.Start < fd.end && fd.start < d.End }) {
			fd.note += "; overlaps a waived detection"
			st.res.Waived = append(st.res.Waived, detection(fd, path, false))
			st.res.Evidence["waived"]++
			continue
		}
		out = append(out, fd)
	}
	return out
}
