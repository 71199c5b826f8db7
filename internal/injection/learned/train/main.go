// Command train builds the weights of the learned injection scorer
// (internal/injection/learned/model.bin), reproducibly: the same sources
// and seed give the same bytes.
//
// Sources: injections from the templates of attacks.go, noised; benign
// text from benign.go; doc comments of the Go distribution's standard
// library ($GOROOT/src, pinned by the toolchain in go.mod); and BIPIA's
// training split, read in place from ../shared/corpora/dev/bipia-train:
// its 125 distinct attack strings as injections and half of its clean
// contexts (by a hash of the text) as benign text, the other half kept
// for measuring false positives.
//
// Run from the repository root:
//
//	go run ./internal/injection/learned/train                # writes model.bin
//	go run ./internal/injection/learned/train -report        # cross-family hold-out
//
// -report trains once per group of families with that group's
// injections left out and prints the recall on each family left out,
// then the false-positive rate on benign text no training run saw.
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/flowd-dev/flowd/internal/corpora"
	"github.com/flowd-dev/flowd/internal/injection/learned"
)

func main() {
	out := flag.String("out", "internal/injection/learned/model.bin", "where to write the model")
	report := flag.Bool("report", false, "train once per family held out and print recall on it, instead of writing the model")
	seed := flag.Uint64("seed", 1, "random seed")
	bits := flag.Int("bits", 18, "log2 of the weight table size")
	window := flag.Int("window", 14, "words per window")
	epochs := flag.Int("epochs", 4, "passes over the data")
	mine := flag.Int("mine", 2, "rounds of hard negatives")
	grammar := flag.Bool("grammar", false, "add the grammar's families of indirect requests, its clean look-alikes, carriers and a typo in every word (grammar.go)")
	only := flag.String("groups", "", "with -report, only the hold-out groups that hold one of these families (comma-separated)")
	flag.Parse()

	d, err := loadData(*seed, *grammar)
	if err != nil {
		log.Fatal(err)
	}
	cfg := config{bits: uint8(*bits), window: *window, epochs: *epochs, mine: *mine, seed: *seed}
	if *report {
		holdoutReport(d, cfg, reportGroups(*only))
		return
	}
	m := train(d, cfg)
	if err := os.WriteFile(*out, m.Encode(), 0o644); err != nil {
		log.Fatalf("write model: %v", err)
	}
	fmt.Printf("wrote %s: %d weights, window %d\n", *out, len(m.Weights), m.Window)
}

type config struct {
	bits   uint8
	window int
	epochs int
	mine   int
	seed   uint64
}

// data are the texts the model learns from and is measured on.
type data struct {
	// attacks by family; BIPIA's are bipia-tasks (hijacks in words) and
	// bipia-code (code to include in an answer).
	attacks map[string][]string
	// benign texts to train on, and benign texts kept out of training.
	benign, heldBenign map[string][]string
}

const perFamily = 2500

// loadData builds the training and measuring data; with grammar, the
// grammar's families and look-alikes join, in carriers (grammar.go).
func loadData(seed uint64, grammar bool) (*data, error) {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	d := &data{attacks: map[string][]string{}, benign: map[string][]string{}, heldBenign: map[string][]string{}}
	fams, gens := families, benignGens
	if grammar {
		fams = append(slices.Clone(families), grammarFamilies...)
		gens = append(slices.Clone(benignGens), lookalike, lookalike)
	}
	for _, f := range fams {
		for range perFamily {
			s := f.gen(r)
			switch x := r.Float64(); {
			case grammar && x < 0.1:
				s = typoEvery(r, s)
			case x < 0.4:
				s = noisy(r, s)
			}
			if grammar && r.Float64() < 0.4 {
				s = carry(r, s)
			}
			d.attacks[f.name] = append(d.attacks[f.name], s)
		}
	}
	for range 12000 {
		s := benignDoc(r, gens)
		if grammar && r.Float64() < 0.3 {
			s = carry(r, s)
		}
		d.benign["written"] = append(d.benign["written"], s)
	}
	prose, err := goProse()
	if err != nil {
		return nil, err
	}
	for _, key := range sortedKeys(prose) {
		for _, c := range prose[key] {
			if half(c) {
				d.heldBenign[key] = append(d.heldBenign[key], c)
				continue
			}
			d.benign[key] = append(d.benign[key], c)
		}
	}
	samples, err := corpora.BIPIA()
	if err != nil {
		return nil, fmt.Errorf("read BIPIA: %w", err)
	}
	if samples == nil {
		p, _ := corpora.BIPIAPath()
		return nil, fmt.Errorf("BIPIA's training split is not at %s: the model is trained on it, see ../shared/corpora", p)
	}
	seen := map[string]bool{}
	for _, s := range samples {
		if s.Label == 0 {
			key := "bipia-clean-" + s.Task
			if half(s.Text) {
				d.heldBenign[key] = append(d.heldBenign[key], s.Text)
			} else {
				d.benign[key] = append(d.benign[key], s.Text)
			}
			continue
		}
		if seen[s.Attack] || s.Encoding == "base64" {
			continue
		}
		seen[s.Attack] = true
		fam := "bipia-tasks"
		if strings.Contains(s.Attack, "```") {
			fam = "bipia-code"
		}
		d.attacks[fam] = append(d.attacks[fam], s.Attack)
	}
	for _, k := range sortedKeys(d.benign) {
		log.Printf("benign %s: %d to train on, %d held out", k, len(d.benign[k]), len(d.heldBenign[k]))
	}
	for _, k := range sortedKeys(d.attacks) {
		log.Printf("injections %s: %d", k, len(d.attacks[k]))
	}
	return d, nil
}

// half splits texts by a hash fixed before training.
func half(s string) bool {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()%2 == 1
}

// sample is one window: the features of its words, and its label.
type sample struct {
	words [][]uint32
	y     float32
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// samples cuts the texts into windows: benign texts into windows at
// random places; each injection into a window of its own words, placed at
// a random point among the words of a benign text as it would be on a
// page, or into several windows when it is longer than one.
func samples(d *data, cfg config, holdout []string, r *rand.Rand) ([]sample, [][][]uint32) {
	var ctx [][][]uint32
	var out []sample
	for _, k := range sortedKeys(d.benign) {
		for _, t := range d.benign[k] {
			ws := learned.WordFeatures(t)
			if len(ws) == 0 {
				continue
			}
			ctx = append(ctx, ws)
			if len(ws) <= cfg.window {
				out = append(out, sample{ws, 0})
				continue
			}
			for range min(3, len(ws)/cfg.window+1) {
				a := r.IntN(len(ws) - cfg.window + 1)
				out = append(out, sample{ws[a : a+cfg.window], 0})
			}
		}
	}
	for _, fam := range sortedKeys(d.attacks) {
		if slices.Contains(holdout, fam) {
			continue
		}
		texts := d.attacks[fam]
		reps := max(1, perFamily/len(texts)) // BIPIA's few attacks, in many contexts
		for _, t := range texts {
			ws := learned.WordFeatures(t)
			if len(ws) == 0 {
				continue
			}
			for range reps {
				if len(ws) >= cfg.window {
					a := r.IntN(len(ws) - cfg.window + 1)
					out = append(out, sample{ws[a : a+cfg.window], 1})
					continue
				}
				c := ctx[r.IntN(len(ctx))]
				room := cfg.window - len(ws)
				before := min(r.IntN(room+1), len(c))
				after := min(room-before, len(c)-before)
				if r.IntN(3) == 0 { // alone, as a short field is
					before, after = 0, 0
				}
				w := make([][]uint32, 0, cfg.window)
				w = append(w, c[len(c)-before:]...)
				w = append(w, ws...)
				w = append(w, c[:after]...)
				out = append(out, sample{w, 1})
			}
		}
	}
	return out, ctx
}

// train fits a logistic regression with AdaGrad on the windows of d,
// leaving out the injections of family holdout, and quantises it. The
// scanner max-pools over every window of a text, so after a first fit
// the best-scoring window of each benign text the model leans on is added
// as a further negative (hard negatives), and the fit goes on.
func train(d *data, cfg config, holdout ...string) *learned.Model {
	r := rand.New(rand.NewPCG(cfg.seed, 0x7a11))
	ss, docs := samples(d, cfg, holdout, r)
	n := 1 << cfg.bits
	mask := uint32(n - 1)
	w := make([]float32, n)
	g2 := make([]float32, n)
	var bias, biasG2 float32
	const lr, l2 = 0.1, 1e-5
	weight := func(h uint32) float32 { return w[h&mask] }
	fit := func(epochs int) {
		var pos, neg float64
		for _, s := range ss {
			if s.y == 1 {
				pos++
			} else {
				neg++
			}
		}
		wPos, wNeg := float32(neg/(pos+neg)), float32(pos/(pos+neg)) // balance the classes
		order := make([]int, len(ss))
		for i := range order {
			order[i] = i
		}
		for range epochs {
			r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			for _, i := range order {
				s := ss[i]
				cnt := 0
				for _, f := range s.words {
					cnt += len(f)
				}
				norm := 1 / float32(math.Sqrt(float64(cnt)))
				z := bias + learned.WindowLogit(s.words, weight)
				p := float32(1 / (1 + math.Exp(-float64(z))))
				g := p - s.y
				if s.y == 1 {
					g *= wPos
				} else {
					g *= wNeg
				}
				for _, f := range s.words {
					for _, h := range f {
						k := h & mask
						gk := g*norm + l2*w[k]
						g2[k] += gk * gk
						w[k] -= lr * gk / float32(math.Sqrt(float64(g2[k])+1e-8))
					}
				}
				biasG2 += g * g
				bias -= lr * g / float32(math.Sqrt(float64(biasG2)+1e-8))
			}
		}
	}
	fit(cfg.epochs)
	for range cfg.mine {
		mined := 0
		for _, ws := range docs {
			if len(ws) <= cfg.window {
				continue
			}
			best, at := float32(math.Inf(-1)), 0
			for a := 0; a+cfg.window <= len(ws); a++ {
				if z := learned.WindowLogit(ws[a:a+cfg.window], weight); z > best {
					best, at = z, a
				}
			}
			if bias+best > 0 {
				ss = append(ss, sample{ws[at : at+cfg.window], 0})
				mined++
			}
		}
		log.Printf("hard negatives: %d windows", mined)
		fit(max(1, cfg.epochs/2))
	}
	var maxAbs float32
	for _, x := range w {
		maxAbs = max(maxAbs, float32(math.Abs(float64(x))))
	}
	scale := maxAbs / 127
	q := make([]int8, n)
	for i, x := range w {
		q[i] = int8(math.Round(float64(x / scale)))
	}
	return &learned.Model{Bits: cfg.bits, Window: cfg.window, Bias: bias, Scale: scale, Weights: q}
}

var thresholds = []float64{0.9, 0.99, 0.995}

// groups are the families held out together: kinds close enough that
// holding out one alone would leave its twin to teach it.
var groups = [][]string{
	{"override", "authority", "secrecy"},
	{"exfiltrate", "toolcall", "access"},
	{"decode"},
	{"foreign"},
	{"addressee", "output"},
	{"bipia-tasks", "bipia-code"},
	{"indirect", "conditional"},
	{"steps", "frames"},
	{"foreign2"},
}

// reportGroups are the hold-out groups that hold one of the families
// named in list, or all of them when it is empty.
func reportGroups(list string) [][]string {
	if list == "" {
		return groups
	}
	var out [][]string
	for _, g := range groups {
		if slices.ContainsFunc(strings.Split(list, ","), func(f string) bool { return slices.Contains(g, f) }) {
			out = append(out, g)
		}
	}
	return out
}

// holdoutReport prints, for each family, the share of its injections
// (each placed in a benign text kept out of training) that a model
// trained without that family's group scores at or above each
// threshold; then the same for benign texts no model was trained on.
func holdoutReport(d *data, cfg config, groups [][]string) {
	r := rand.New(rand.NewPCG(cfg.seed, 0xbe7))
	var hosts []string
	for _, k := range sortedKeys(d.heldBenign) {
		hosts = append(hosts, d.heldBenign[k]...)
	}
	fmt.Printf("cross-family hold-out: each group of families is left out of one training and scored with that model (each injection inside a held-out benign text)\n")
	fmt.Printf("%-14s %6s", "family", "n")
	for _, t := range thresholds {
		fmt.Printf(" %8s", fmt.Sprintf("p>=%.3f", t))
	}
	fmt.Println()
	for _, g := range groups {
		m := train(d, cfg, g...)
		for _, fam := range g {
			texts := d.attacks[fam]
			if len(texts) > 500 {
				texts = texts[:500]
			}
			hits := make([]int, len(thresholds))
			for _, t := range texts {
				h := hosts[r.IntN(len(hosts))]
				cut := strings.LastIndexAny(h[:r.IntN(len(h)+1)], ".\n") + 1
				p := m.Score(h[:cut] + " " + t + " " + h[cut:]).P
				for i, th := range thresholds {
					if p >= th {
						hits[i]++
					}
				}
			}
			fmt.Printf("%-14s %6d", fam, len(texts))
			for _, h := range hits {
				fmt.Printf(" %7.1f%%", 100*float64(h)/float64(len(texts)))
			}
			fmt.Println()
		}
	}
	m := train(d, cfg)
	fmt.Printf("\nfalse positives of the full model on benign text kept out of training\n")
	for _, k := range sortedKeys(d.heldBenign) {
		hits := make([]int, len(thresholds))
		for _, t := range d.heldBenign[k] {
			p := m.Score(t).P
			for i, th := range thresholds {
				if p >= th {
					hits[i]++
				}
			}
		}
		fmt.Printf("%-22s %6d", k, len(d.heldBenign[k]))
		for i, h := range hits {
			fmt.Printf(" p>=%.3f %d (%.2f%%)", thresholds[i], h, 100*float64(h)/float64(len(d.heldBenign[k])))
		}
		fmt.Println()
	}
}
