package flow

import "github.com/flowd-dev/flowd/internal/classify"

// Risk levels, in order.
const (
	RiskNone     = "none"
	RiskLow      = "low"
	RiskMedium   = "medium"
	RiskHigh     = "high"
	RiskCritical = "critical"
)

var riskRank = map[string]int{"": 0, RiskNone: 0, RiskLow: 1, RiskMedium: 2, RiskHigh: 3, RiskCritical: 4}

// MaxRisk returns the higher of two levels.
func MaxRisk(a, b string) string {
	if riskRank[b] > riskRank[a] {
		return b
	}
	return a
}

// side folds a classification into the two ends a flow can have. A hybrid
// or unknown source may hold private data and a hybrid destination can send
// data out, so each is taken at its most dangerous.
func side(c classify.Class, source bool) string {
	switch c {
	case classify.External:
		return "external"
	case classify.Internal:
		return "internal"
	}
	if source {
		return "internal"
	}
	return "external"
}

// FlowType names a flow from a source class to a destination class.
func FlowType(from, to classify.Class) string {
	return side(from, true) + "→" + side(to, false)
}

// edgeRisk rates one flow. Secrets leaving are the worst case whatever
// their source; private data leaving is high; untrusted data coming in
// is low (prompt injection is judged elsewhere).
func edgeRisk(flowType string, secret bool) string {
	switch flowType {
	case "internal→external":
		if secret {
			return RiskCritical
		}
		return RiskHigh
	case "external→external":
		if secret {
			return RiskHigh
		}
		return RiskLow
	case "external→internal":
		return RiskLow
	}
	if secret {
		return RiskLow // a secret copied between internal tools stays inside
	}
	return RiskNone
}
