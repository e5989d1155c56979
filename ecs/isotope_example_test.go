package ecs_test

import (
	"fmt"

	"github.com/slipway-ecs/slipway/ecs"
)

// Salts are the isotope set of a partial view: the discriminants it
// covers.
type Salts struct{}

func (Salts) Discriminants() []string { return []string{"salt", "potash"} }

// ExampleIsoView gives a potion amounts of several ingredients, keyed by
// name, and reads them back: all of them, and the salts only.
func ExampleIsoView() {
	type Grams struct{ G int }
	w := ecs.NewWorld()
	potion, _ := w.AddEntity()
	_ = ecs.AddIsotope(w, potion, "salt", Grams{3})
	_ = ecs.AddIsotope(w, potion, "nightshade", Grams{1})

	_ = w.Run(func(all ecs.IsoView[string, Grams], salts ecs.IsoSubView[string, Grams, Salts]) {
		for name, g := range all.Isotopes(potion) {
			fmt.Println(name, g.G)
		}
		fmt.Println(salts.Discriminants(), salts.Of("salt").Len(), salts.Of("potash").Len())
	})
	// Output:
	// salt 3
	// nightshade 1
	// [salt potash] 1 0
}
