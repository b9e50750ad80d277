package bigmem

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSystem writes files under a temporary root: path (relative) to content.
func fakeSystem(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const meminfo = "MemTotal:       24684092 kB\nMemFree:        23000000 kB\nMemAvailable:   20000000 kB\nBuffers:           1000 kB\n"

func TestMemoryUnder(t *testing.T) {
	const gib = 1 << 30
	for _, tc := range []struct {
		name   string
		files  map[string]string
		want   uint64
		source string // a part of the source named
		ok     bool
	}{
		{"meminfo alone", map[string]string{"proc/meminfo": meminfo}, 20000000 * 1024, "MemAvailable", true},
		{"nothing readable", map[string]string{}, 0, "", false},
		{"meminfo without MemAvailable", map[string]string{"proc/meminfo": "MemTotal: 1 kB\n"}, 0, "", false},
		{"v2 limit below MemAvailable", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "0::/user.slice/job\n",
			"sys/fs/cgroup/user.slice/job/memory.max":     "4294967296\n",
			"sys/fs/cgroup/user.slice/job/memory.current": "1073741824\n",
			"sys/fs/cgroup/user.slice/job/memory.stat":    "anon 100\ninactive_file 536870912\nactive_file 5\n",
		}, 4*gib - (gib - gib/2), "/sys/fs/cgroup/user.slice/job/memory.max", true},
		{"v2 no limit", map[string]string{
			"proc/meminfo":             meminfo,
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "max\n",
		}, 20000000 * 1024, "MemAvailable", true},
		{"v2 a parent's limit is tighter", map[string]string{
			"proc/meminfo":                   meminfo,
			"proc/self/cgroup":               "0::/a/b\n",
			"sys/fs/cgroup/a/b/memory.max":   "max\n",
			"sys/fs/cgroup/a/memory.max":     "2147483648\n",
			"sys/fs/cgroup/a/memory.current": "0\n",
			"sys/fs/cgroup/memory.max":       "8589934592\n",
		}, 2 * gib, "/sys/fs/cgroup/a/memory.max", true},
		{"v2 inside a container: the host's path is not mounted", map[string]string{
			"proc/meminfo":                 meminfo,
			"proc/self/cgroup":             "0::/kubepods/pod1/abc\n",
			"sys/fs/cgroup/memory.max":     "1073741824\n",
			"sys/fs/cgroup/memory.current": "2000000000\n",
		}, 0, "/sys/fs/cgroup/memory.max", true},
		{"v1 limit", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "5:devices:/\n4:memory:/job\n0::/\n",
			"sys/fs/cgroup/memory/job/memory.limit_in_bytes": "3221225472\n",
			"sys/fs/cgroup/memory/job/memory.usage_in_bytes": "1073741824\n",
		}, 2 * gib, "memory.limit_in_bytes", true},
		{"v1 no limit", map[string]string{
			"proc/meminfo":     meminfo,
			"proc/self/cgroup": "4:cpu,memory:/\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}, 20000000 * 1024, "MemAvailable", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, source, ok := memoryUnder(fakeSystem(t, tc.files))
			if got != tc.want || ok != tc.ok || !strings.Contains(source, tc.source) {
				t.Errorf("got %d, %q, %v; want %d, source with %q, %v", got, source, ok, tc.want, tc.source, tc.ok)
			}
		})
	}
}

// A request far beyond any machine is refused, with the sizes in the message; a small one
// passes.
func TestCheckAvailable(t *testing.T) {
	if _, _, ok := Available(); !ok {
		t.Skip("this system does not say how much memory is available")
	}
	err := CheckAvailable(1 << 60)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Request != 1<<60 || !strings.Contains(err.Error(), "1048576.0 TiB") {
		t.Fatalf("1 EiB: %v", err)
	}
	if err := CheckAvailable(1 << 20); err != nil {
		t.Fatalf("1 MiB: %v", err)
	}
}

func TestSize(t *testing.T) {
	for b, want := range map[uint64]string{0: "0 MiB", 512 << 20: "512 MiB", 3 << 29: "1.5 GiB", 1 << 40: "1.0 TiB"} {
		if got := Size(b); got != want {
			t.Errorf("Size(%d) = %q, want %q", b, got, want)
		}
	}
}

// MiB and Times saturate instead of wrapping round to a small request.
func TestMiBTimes(t *testing.T) {
	const max = ^uint64(0)
	for _, c := range []struct {
		got, want uint64
	}{
		{MiB(3, 2), 6 << 20}, {MiB(0, 2), 0}, {MiB(3, 0), 0}, {MiB(-1, 2), 0},
		{MiB(1<<50, 1), max}, {MiB(1<<40, 1<<30), max},
		{Times(5, 3), 15}, {Times(5, 0), 0}, {Times(max/2, 3), max},
	} {
		if c.got != c.want {
			t.Errorf("got %d, want %d", c.got, c.want)
		}
	}
}
