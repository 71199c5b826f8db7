package flow

import "sync"

// lane runs jobs one after another, in the order they were added, on a
// goroutine that starts when jobs wait and ends when none do. It holds at
// most maxLaneBytes of the jobs' data; past that, add waits, which holds
// the caller back rather than memory growing.
type lane struct {
	mu      sync.Mutex
	room    sync.Cond
	jobs    []laneJob
	bytes   int
	running bool
}

type laneJob struct {
	size int
	run  func()
}

// maxLaneBytes bounds the data a lane's waiting jobs hold.
const maxLaneBytes = 4 << 20

// add queues run, which holds size bytes until it is done. A job larger
// than the bound still goes into an empty lane.
func (l *lane) add(size int, run func()) {
	l.mu.Lock()
	if l.room.L == nil {
		l.room.L = &l.mu
	}
	for l.bytes > 0 && l.bytes+size > maxLaneBytes {
		l.room.Wait()
	}
	l.jobs = append(l.jobs, laneJob{size: size, run: run})
	l.bytes += size
	start := !l.running
	l.running = true
	l.mu.Unlock()
	if start {
		go l.drain()
	}
}

func (l *lane) drain() {
	done := 0
	for {
		l.mu.Lock()
		if done > 0 {
			l.bytes -= done
			l.room.Broadcast()
		}
		if len(l.jobs) == 0 {
			l.running = false
			l.mu.Unlock()
			return
		}
		j := l.jobs[0]
		l.jobs[0] = laneJob{}
		l.jobs = l.jobs[1:]
		l.mu.Unlock()
		j.run()
		done = j.size
	}
}
