package bigmem

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// A table larger than the machine's memory does not fail cleanly: Slice touches every page, so
// the kernel kills the process, or the Go runtime dies with "out of memory" and a dump of every
// goroutine. Programs check a size the user asks for against the memory available first.

// TooLargeError reports a request for more memory than is available.
type TooLargeError struct {
	Request   uint64 // bytes asked for
	Available uint64 // bytes available
	Source    string // where Available comes from
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s of memory needed, but only %s available (%s)", Size(e.Request), Size(e.Available), e.Source)
}

// Size writes a number of bytes for people: "512 MiB", "31.5 GiB".
func Size(b uint64) string {
	switch {
	case b >= 1<<40:
		return fmt.Sprintf("%.1f TiB", float64(b)/(1<<40))
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", b>>20)
}

// MiB is count tables of mib MiB each, in bytes; it saturates instead of overflowing, so an
// absurd request is refused by CheckAvailable rather than wrapped round to a small one.
func MiB(mib, count int) uint64 {
	if mib <= 0 || count <= 0 {
		return 0
	}
	b := uint64(mib) << 20
	if uint64(mib) > math.MaxUint64>>20 || b > math.MaxUint64/uint64(count) {
		return math.MaxUint64
	}
	return b * uint64(count)
}

// Times is count copies of b bytes, saturating like MiB.
func Times(b uint64, count int) uint64 {
	if count <= 0 {
		return 0
	}
	if b > math.MaxUint64/uint64(count) {
		return math.MaxUint64
	}
	return b * uint64(count)
}

// CheckAvailable returns a *TooLargeError when request bytes are more than Available says the
// process can have, and nil when they fit or when the system does not tell (no check is
// better than a wrong refusal).
func CheckAvailable(request uint64) error {
	avail, source, ok := Available()
	if ok && request > avail {
		return &TooLargeError{Request: request, Available: avail, Source: source}
	}
	return nil
}

// memoryUnder finds the available memory in the files of a Linux system under root ("/" for
// the real one; tests give a directory of their own): MemAvailable of /proc/meminfo (the
// kernel's estimate of what can be allocated without swapping, page cache it can drop
// included), lowered to the room left under the memory limit of the process's cgroup (v2
// memory.max or v1 memory.limit_in_bytes, of its cgroup and every ancestor), when one is set.
func memoryUnder(root string) (avail uint64, source string, ok bool) {
	if b, err := os.ReadFile(filepath.Join(root, "proc/meminfo")); err == nil {
		if kb, found := field(string(b), "MemAvailable:"); found && kb <= math.MaxUint64/1024 {
			avail, source, ok = kb*1024, "MemAvailable in /proc/meminfo", true
		}
	}
	if room, limitFile, found := cgroupRoom(root); found && (!ok || room < avail) {
		avail, source, ok = room, "the memory limit "+limitFile+" less the memory in use", true
	}
	return avail, source, ok
}

// field returns the number after key at the start of a line of text ("MemAvailable: 123 kB").
func field(text, key string) (uint64, bool) {
	for _, line := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0, false
			}
			n, err := strconv.ParseUint(f[0], 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// unlimited is the smallest value taken for "no limit" in a cgroup v1 limit file (which says
// so with a huge number; v2 writes "max").
const unlimited = 1 << 60

// cgroupRoom returns the memory left under the tightest memory limit of the process's cgroup
// and its ancestors, with the file that sets it; found is false when no limit is set or none
// can be read.
func cgroupRoom(root string) (room uint64, limitFile string, found bool) {
	b, err := os.ReadFile(filepath.Join(root, "proc/self/cgroup"))
	if err != nil {
		return 0, "", false
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		// "hierarchy-ID:controllers:path": v2 is "0::/path", v1's memory line names "memory".
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		var mount, limitName, usageName, statKey string
		switch {
		case parts[0] == "0" && parts[1] == "":
			mount, limitName, usageName, statKey = "sys/fs/cgroup", "memory.max", "memory.current", "inactive_file "
		case hasController(parts[1], "memory"):
			mount, limitName, usageName, statKey = "sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file "
		default:
			continue
		}
		// Walk from the process's cgroup up to the root of the mount. Inside a container
		// the path may name the host's hierarchy, which is not mounted: the loop then reaches
		// the mount's root, which is the container's own cgroup.
		for p := filepath.Clean("/" + parts[2]); ; p = filepath.Dir(p) {
			dir := filepath.Join(root, mount, p)
			if r, ok := cgroupDirRoom(dir, limitName, usageName, statKey); ok && (!found || r < room) {
				room, limitFile, found = r, filepath.Join("/", mount, p, limitName), true
			}
			if p == "/" {
				break
			}
		}
	}
	return room, limitFile, found
}

func hasController(list, name string) bool {
	for _, c := range strings.Split(list, ",") {
		if c == name {
			return true
		}
	}
	return false
}

// cgroupDirRoom returns the room under the limit of one cgroup directory: the limit less the
// memory in use, the page cache the kernel can reclaim first (inactive_file) not counted.
func cgroupDirRoom(dir, limitName, usageName, statKey string) (uint64, bool) {
	lb, err := os.ReadFile(filepath.Join(dir, limitName))
	if err != nil {
		return 0, false
	}
	limit, err := strconv.ParseUint(strings.TrimSpace(string(lb)), 10, 64)
	if err != nil || limit >= unlimited { // "max", or v1's huge number
		return 0, false
	}
	var used uint64
	if ub, err := os.ReadFile(filepath.Join(dir, usageName)); err == nil {
		used, _ = strconv.ParseUint(strings.TrimSpace(string(ub)), 10, 64)
	}
	if sb, err := os.ReadFile(filepath.Join(dir, "memory.stat")); err == nil {
		if inactive, ok := field(string(sb), statKey); ok {
			used -= min(inactive, used)
		}
	}
	return limit - min(used, limit), true
}
