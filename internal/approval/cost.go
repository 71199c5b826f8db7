package approval

// UseTestCost makes new verifiers cheap to check: for the tests of other
// packages that run flowd in their own process, under the race detector
// and beside other work, where the real count takes tens of seconds a
// check and outlasts the client's wait. Call it from TestMain, before any
// test runs; flowd itself never does.
func UseTestCost() { iterations = 1000 }
