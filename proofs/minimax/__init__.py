"""gs2010 minimax consumers: universal optimality of G, Lemma 5 and its perturbation argument."""
