//go:build !race

package ecs_test

const raceEnabled = false
