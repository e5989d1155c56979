module github.com/slipway-ecs/slipway

go 1.24
