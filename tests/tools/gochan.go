// SPDX-License-Identifier: GPL-2.0
//
// gochan.go - a producer goroutine handing values to a consumer goroutine
// through a channel, as a small Go program does, for the stack tests of Go
// programs (tests/system/test_stacks.c). producer() makes each value, a
// while's work, and sends it; consumer() receives it and works on it for
// less than that, so it is back at the channel before the next value and
// parks there. With two Ps (GOMAXPROCS 2) the consumer's thread finds
// nothing else to run and sleeps in a futex; the producer's send readies
// the consumer and wakes an idle thread, through the runtime's futex wake,
// to run it: wakeups between the program's threads, whose stacks the Go
// compiler's frame pointers make whole.
//
// Built by the Go of the distribution, as a user builds it: nothing for
// the tracer's sake. It prints the rounds, the sum of what the consumer
// made of the values and how long it took. Usage: gochan [ROUNDS]
// (default 2000).
package main

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"
)

const (
	defaultRounds = 2000
	maxRounds     = 10000000
	// sha256 passes over a 64-byte block: some 100 us of the producer's, 40 of the consumer's
	produceHashes = 200
	consumeHashes = 80
)

// hashRounds - @seed hashed @n times over, each hash of the one before
func hashRounds(seed uint64, n int) uint64 {
	var block [64]byte

	binary.LittleEndian.PutUint64(block[:], seed)
	for i := 0; i < n; i++ {
		sum := sha256.Sum256(block[:])
		copy(block[:], sum[:])
	}
	return binary.LittleEndian.Uint64(block[:])
}

// producer - @rounds values down @values, each made first; closes it after the last
func producer(rounds int, values chan<- uint64) {
	for i := 0; i < rounds; i++ {
		values <- hashRounds(uint64(i), produceHashes)
	}
	close(values)
}

// consumer - every value of @values worked on, until it is closed; the sum of what it made, down @done
func consumer(values <-chan uint64, done chan<- uint64) {
	var sum uint64

	for v := range values {
		sum += hashRounds(v, consumeHashes)
	}
	done <- sum
}

func main() {
	rounds := defaultRounds

	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "Usage: gochan [ROUNDS]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		n, err := strconv.Atoi(os.Args[1])
		if err != nil || n < 1 || n > maxRounds {
			fmt.Fprintf(os.Stderr, "gochan: ROUNDS is a whole number from 1 to %d, not '%s'\n", maxRounds,
				os.Args[1])
			os.Exit(2)
		}
		rounds = n
	}
	runtime.GOMAXPROCS(2)

	values := make(chan uint64)
	done := make(chan uint64)
	start := time.Now()
	go producer(rounds, values)
	go consumer(values, done)
	sum := <-done
	fmt.Printf("gochan: %d rounds, sum %016x, %.3f s\n", rounds, sum, time.Since(start).Seconds())
}
