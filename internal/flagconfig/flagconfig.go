// Package flagconfig gives a command's flags defaults from a TOML file: the table named after
// the (sub)command holds one key per flag, its value anything the flag accepts. Flags set on
// the command line win; an unknown key is an error, so that typos do not pass silently.
package flagconfig

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/BurntSushi/toml"
)

// Apply sets the flags of fs not given on the command line from the table of the TOML file at
// path named after fs without its "othello " prefix ("book build" for "othello book build").
func Apply(fs *flag.FlagSet, path string) error {
	name := TableName(fs.Name())
	defaults, err := loadTable(path, name)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for key, value := range defaults {
		if fs.Lookup(key) == nil {
			return fmt.Errorf("config %s: [%s] has unknown option %q", path, name, key)
		}
		if set[key] {
			continue
		}
		if err := fs.Set(key, fmt.Sprint(value)); err != nil {
			return fmt.Errorf("config %s: [%s] %s = %v: %v", path, name, key, value, err)
		}
	}
	return nil
}

// TableName is the table of a flag set's name: the name without "othello ".
func TableName(flagSetName string) string {
	const prefix = "othello "
	if len(flagSetName) > len(prefix) && strings.HasPrefix(flagSetName, prefix) {
		return flagSetName[len(prefix):]
	}
	return flagSetName
}

// loadTable returns the table of the file named name (empty when the file has none).
func loadTable(path, name string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %v", err)
	}
	var all map[string]any
	if _, err := toml.Decode(string(data), &all); err != nil {
		return nil, fmt.Errorf("config %s: %v", path, err)
	}
	raw, ok := all[name]
	if !ok {
		return nil, nil
	}
	table, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("config %s: %q must be a table", path, name)
	}
	return table, nil
}
