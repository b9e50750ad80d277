package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/BurntSushi/toml"
)

// newFlagSet makes a subcommand's flag set writing its messages to stderr.
func newFlagSet(env *cmdEnv, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("othello "+name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	return fs
}

// parseFlags parses a subcommand's flags. Flags not given on the command line take their value
// from the [name] table of the TOML config file, when there is one: a key is a flag name, its
// value anything the flag accepts. Unknown keys are an error, so typos do not pass silently.
func parseFlags(env *cmdEnv, fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return exitError{2, err}
	}
	if env.config == "" {
		return nil
	}
	defaults, err := loadConfigTable(env.config, fs.Name())
	if err != nil {
		return exitError{2, err}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for key, value := range defaults {
		if fs.Lookup(key) == nil {
			return exitError{2, fmt.Errorf("config %s: [%s] has unknown option %q", env.config, tableName(fs.Name()), key)}
		}
		if set[key] {
			continue
		}
		if err := fs.Set(key, fmt.Sprint(value)); err != nil {
			return exitError{2, fmt.Errorf("config %s: [%s] %s = %v: %v", env.config, tableName(fs.Name()), key, value, err)}
		}
	}
	return nil
}

func tableName(flagSetName string) string {
	const prefix = "othello "
	if len(flagSetName) > len(prefix) && flagSetName[:len(prefix)] == prefix {
		return flagSetName[len(prefix):]
	}
	return flagSetName
}

// loadConfigTable returns the table of the config file named after the subcommand (empty
// when the file has none).
func loadConfigTable(path, flagSetName string) (map[string]any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %v", err)
	}
	var all map[string]any
	if _, err := toml.Decode(string(data), &all); err != nil {
		return nil, fmt.Errorf("config %s: %v", path, err)
	}
	raw, ok := all[tableName(flagSetName)]
	if !ok {
		return nil, nil
	}
	table, ok := raw.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("config %s: %q must be a table", path, tableName(flagSetName))
	}
	return table, nil
}
