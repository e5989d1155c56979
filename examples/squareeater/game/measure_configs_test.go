package game

import "fmt"

// measureConfigs are the invincibility settings TestMeasureFloorOne
// compares: the guide's, the default and a few others.
func measureConfigs() []measureConfig {
	var out []measureConfig
	for _, n := range []int{GuideInvincibleFrames, 15, 30, 45, 60} {
		name := fmt.Sprint(n, " frames")
		switch n {
		case GuideInvincibleFrames:
			name += " (guide)"
		case InvincibleFrames:
			name += " (default)"
		}
		out = append(out, measureConfig{name, func(s uint64) *Game { return NewWithOptions(s, Options{InvincibleFrames: n}) }})
	}
	return out
}
