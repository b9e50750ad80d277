package train

import (
	"os"
	"strconv"
	"testing"
	"time"
)

func TestExperiment(t *testing.T) {
	st := time.Now()
	games, _, err := LoadGames([]string{"/work/shared/data/wthor", "/work/shared/data/logistello-book"}, map[string]bool{"WTH_2023.wtb": true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	val, _, _ := LoadGames([]string{"/work/shared/data/wthor/WTH_2023.wtb"}, nil, nil)
	t.Logf("loaded %d+%d games in %v", len(games), len(val), time.Since(st))
	stage, _ := strconv.Atoi(os.Getenv("STAGE"))
	cfg := DefaultConfig()
	cfg.Rate, _ = strconv.ParseFloat(os.Getenv("RATE"), 64)
	cfg.Momentum, _ = strconv.ParseFloat(os.Getenv("MOM"), 64)
	cfg.Epochs, _ = strconv.Atoi(os.Getenv("EPOCHS"))
	cfg.Ridge, _ = strconv.ParseFloat(os.Getenv("RIDGE"), 64)
	st = time.Now()
	train := collect(games, 4*stage-1, 4*stage+4, 2)
	v := collect(val, 4*stage, 4*stage+3, 1)[0]
	t.Logf("collected %d + %d, %d val in %v", train[0].len(), train[1].len(), v.len(), time.Since(st))
	st = time.Now()
	fitStage(stage, train, &v, cfg, func(e EpochStats) {
		if e.Epoch%5 == 0 || e.Epoch < 5 {
			t.Logf("%+v %v", e, time.Since(st))
		}
	})
}
