package provider

import (
	"errors"
	"iter"
	"slices"
	"sync"
	"testing"
)

// A list is walked once a run, whoever reads it and however often; a
// failed walk is not kept; add and forget change what the next read sees.
func TestRunList(t *testing.T) {
	var l runList[int]
	walks := 0
	var fail error
	all := func() iter.Seq2[int, error] {
		walks++
		return func(yield func(int, error) bool) {
			for _, i := range []int{1, 2, 3} {
				if fail != nil && i == 2 {
					yield(0, fail)
					return
				}
				if !yield(i, nil) {
					return
				}
			}
		}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := l.items("app", all)
			if err != nil || !slices.Equal(got, []int{1, 2, 3}) {
				t.Errorf("items = %v, %v", got, err)
			}
		})
	}
	wg.Wait()
	if walks != 1 {
		t.Fatalf("8 reads walked the list %d times, want once", walks)
	}
	got, _ := l.items("other", all)
	if walks != 2 || len(got) != 3 {
		t.Fatalf("another key: %d walks, %v", walks, got)
	}

	l.add("app", 4)
	l.add("never walked", 9)
	if got, _ := l.items("app", all); !slices.Equal(got, []int{1, 2, 3, 4}) || walks != 2 {
		t.Fatalf("after add: %v (%d walks)", got, walks)
	}
	if got, _ := l.items("never walked", all); !slices.Equal(got, []int{1, 2, 3}) {
		t.Fatalf("add to a list never walked made it up: %v", got)
	}
	walks = 0
	l.forget("app")
	if got, _ := l.items("app", all); !slices.Equal(got, []int{1, 2, 3}) || walks != 1 {
		t.Fatalf("after forget: %v (%d walks)", got, walks)
	}

	fail = errors.New("503")
	l.forget("app")
	if _, err := l.items("app", all); !errors.Is(err, fail) {
		t.Fatalf("a failed walk: %v", err)
	}
	fail = nil
	if got, err := l.items("app", all); err != nil || len(got) != 3 || walks != 3 {
		t.Fatalf("after a failed walk, the next read walks again: %v, %v (%d walks)", got, err, walks)
	}

	var seen []int
	for i, err := range l.each("app", all) {
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, i)
		if i == 2 {
			break
		}
	}
	if !slices.Equal(seen, []int{1, 2}) {
		t.Fatalf("each: %v", seen)
	}
	fail = errors.New("down")
	l.forget("app")
	for _, err := range l.each("app", all) {
		if !errors.Is(err, fail) {
			t.Fatalf("each of a failed walk: %v", err)
		}
	}
}

func TestFresh(t *testing.T) {
	forgets, finds := 0, 0
	find := fresh(func() { forgets++ }, func() (*int, error) { finds++; return nil, nil })
	for range 3 {
		_, _ = find()
	}
	if forgets != 2 || finds != 3 {
		t.Fatalf("%d forgets and %d finds, want 2 and 3: the first find uses the run's list", forgets, finds)
	}
}

// An object made while its list is being walked is not added to that walk
// (the walk may hold it already): the list is read again, once.
func TestRunListAddDuringAWalk(t *testing.T) {
	var l runList[int]
	started, release := make(chan struct{}), make(chan struct{})
	walks := 0
	all := func() iter.Seq2[int, error] {
		walks++
		first := walks == 1
		return func(yield func(int, error) bool) {
			if first {
				close(started)
				<-release
			}
			for _, i := range []int{1, 2} {
				if !yield(i, nil) {
					return
				}
			}
		}
	}
	done := make(chan []int)
	go func() {
		got, _ := l.items("app", all)
		done <- got
	}()
	<-started
	l.add("app", 2) // made meanwhile; the walk under way will list it
	close(release)
	if got := <-done; !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("the walk under way gave %v", got)
	}
	if got, _ := l.items("app", all); !slices.Equal(got, []int{1, 2}) || walks != 2 {
		t.Fatalf("after an add during a walk: %v (%d walks), want [1 2] read again", got, walks)
	}
}
