package judge

import (
	"runtime"
	"sync"
)

// background runs the work a result leaves behind its verdict (the call's
// activity record, the result's recording as an origin) one job after
// another, on a goroutine of its own, so the result is not held up for it.
//
// flowd runs with one scheduler slot (see cmd/flowd), so this work never
// runs beside a verdict in flowd: between jobs the worker lets whatever
// else is ready go first, so a verdict waits for the job under way, not
// for the whole queue.
//
// It used to run on a thread of its own at nice 19. Unloaded that was
// 10-15 µs faster, but on a busy machine the thread got no CPU while the
// flow checks that wait for a recording waited for it: with two CPU hogs
// running, a round trip's added latency was +400-1100 µs at the median,
// against +150-210 µs at normal priority.
//
// A request's flow check stays on its connection: it waits for results
// recorded before it, which may be queued here.
type background struct {
	once sync.Once
	jobs chan func()
	done chan struct{}
}

// backgroundQueue bounds the jobs waiting; past it, add waits, holding the
// connection back rather than memory growing.
const backgroundQueue = 1024

// add queues job, starting the worker on first use.
func (b *background) add(job func()) {
	b.once.Do(func() {
		b.jobs, b.done = make(chan func(), backgroundQueue), make(chan struct{})
		go b.run()
	})
	b.jobs <- job
}

func (b *background) run() {
	defer close(b.done)
	for job := range b.jobs {
		job()
		// Receiving the next job does not give up the slot: without this
		// a backlog would run to its end before the next verdict.
		runtime.Gosched()
	}
}

// close runs the jobs queued and stops the worker. Nothing may be added
// after it.
func (b *background) close() {
	b.once.Do(func() {}) // a worker never started stays so
	if b.jobs != nil {
		close(b.jobs)
		<-b.done
	}
}
