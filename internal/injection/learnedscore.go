package injection

import (
	"fmt"

	"github.com/flowd-dev/flowd/internal/injection/learned"
)

// learnedRule names the detection of the learned scorer (package
// learned): the window of words it scored highest, with its probability
// as the severity.
const learnedRule = "learned-classifier"

// The learned scorer knows words, not intent: on its own it only ever
// flags (a notice; the content is unchanged), and it raises a field the
// rules already flag by learnedBoost, so that rules and model agreeing
// can redact. Windows below learnedMinP are not reported at all.
const (
	learnedMinP   = 0.98
	learnedFlagP  = 0.98
	learnedBoostP = 0.99
	learnedBoost  = 0.15
)

// findLearned scores the text with the model and records its best window
// when the model leans towards injection. As a language finding it is
// discounted like the rules' when quoted in a discussion of attacks or
// written in a code block.
func (f *fieldScan) findLearned(m *learned.Model) {
	w := m.Score(f.t)
	if w.P < learnedMinP {
		return
	}
	f.finds = append(f.finds, finding{rule: learnedRule, tier: Contextual, kind: language, sev: w.P, a: w.Start, b: w.End,
		note: fmt.Sprintf("learned scorer, p=%.2f", w.P)})
}

// withLearned combines a field's rule score with the learned scorer's
// probability p (after discounts): alone, at most a flag; with the rules
// flagging already, a boost.
func (s *Scanner) withLearned(score, p float64) float64 {
	flag := s.o.Thresholds.Flag
	switch {
	case p >= learnedBoostP && score >= flag:
		return min(1, score+learnedBoost)
	case p >= learnedFlagP:
		return max(score, flag)
	}
	return score
}
