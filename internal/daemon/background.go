package daemon

import "sync"

// background runs the work a result leaves behind its verdict (the call's
// activity record, the result's recording as an origin) one job after
// another, at the lowest CPU priority where the system has one.
//
// On a loaded machine that work competes for the cores with the processes
// a round trip is waiting for: the shim, the client, the next server. At
// nice 19 the kernel runs it when they are not runnable. Alternating bench
// runs with the work on the connection's goroutine and on a background
// goroutine at normal priority showed no difference; at nice 19 the added
// latency fell by about 20 µs. Nice 19 is not idle: under a busy machine
// the work is slowed, never starved, so the flow checks that wait for a
// recording (calls to external destinations) are never held up for long.
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
	lowerPriority()
	for job := range b.jobs {
		job()
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
