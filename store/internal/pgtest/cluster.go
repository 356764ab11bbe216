package pgtest

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
)

// errMissing says the PostgreSQL server binaries are not installed.
type errMissing string

func (e errMissing) Error() string { return string(e) }

// cluster is a throwaway PostgreSQL cluster in a temporary directory.
type cluster struct {
	bin    string   // directory of initdb, pg_ctl
	dir    string   // temporary directory: data/, the socket, the log
	asUser []string // command prefix running as the unprivileged owner
	url    string
}

// binDir returns the newest /usr/lib/postgresql/*/bin holding initdb.
func binDir() (string, error) {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) == 0 {
		return "", errMissing("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb)")
	}
	sort.Slice(found, func(i, j int) bool { return version(found[i]) < version(found[j]) })
	return filepath.Dir(found[len(found)-1]), nil
}

// version is the major version in an initdb path, 0 when unparsable.
func version(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

// startCluster runs initdb in a new temporary directory and starts the
// server on a Unix socket there, with durability off (tests only). The
// server refuses to run as root: as root, the directory is given to the
// user postgres (created by the Debian package) and the server runs as it.
func startCluster() (*cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "gleaner-pg-")
	if err != nil {
		return nil, fmt.Errorf("temporary directory: %w", err)
	}
	c := &cluster{bin: bin, dir: dir}
	if err := c.prepare(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.run("initdb", "-D", c.data(), "-U", "gleaner", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	opts := "-c listen_addresses='' -k " + dir + " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c deadlock_timeout=50ms"
	if err := c.run("pg_ctl", "start", "-w", "-t", "60", "-D", c.data(), "-l", filepath.Join(dir, "server.log"), "-o", opts); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%w\n%s", err, log)
	}
	c.url = "postgres://gleaner@/postgres?sslmode=disable&host=" + url.QueryEscape(dir)
	return c, nil
}

// prepare makes the directory usable by the server's user: when running as
// root, that is postgres, which then owns the directory.
func (c *cluster) prepare() error {
	if err := os.Chmod(c.dir, 0o755); err != nil {
		return err
	}
	if os.Geteuid() != 0 {
		return nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return fmt.Errorf("running as root and no user postgres to run the server as: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(c.dir, uid, gid); err != nil {
		return fmt.Errorf("give %s to postgres: %w", c.dir, err)
	}
	c.asUser = []string{"runuser", "-u", "postgres", "--"}
	return nil
}

func (c *cluster) data() string { return filepath.Join(c.dir, "data") }

// run runs one of the server's programs as the cluster's owner.
func (c *cluster) run(prog string, args ...string) error {
	argv := append(append(append([]string(nil), c.asUser...), filepath.Join(c.bin, prog)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w\n%s", prog, err, out.Bytes())
	}
	return nil
}

// stop stops the server at once and removes the directory.
func (c *cluster) stop() error {
	err := c.run("pg_ctl", "stop", "-m", "immediate", "-D", c.data())
	if rmErr := os.RemoveAll(c.dir); err == nil {
		err = rmErr
	}
	return err
}
