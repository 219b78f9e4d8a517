import { BrowserProvider, Contract, HDNodeWallet, ZeroAddress, parseUnits } from 'ethers';

import type { LocalChain } from '../chains';
import {
	DEVNET_MNEMONIC,
	type DevnetWallet,
	type Fixtures,
	deploy,
	devnetWallets,
	send,
} from '../fixtures';
import { SAFE_INTERFACE, safeArtifact } from './artifacts';

/** Devnet wallets 5, 6 and 7 own the Safe; 2 of them must sign. */
export const SAFE_OWNER_WALLETS = [5, 6, 7];
export const SAFE_THRESHOLD = 2;
/** The delegate's derivation index on the devnet mnemonic: past hardhat's 20 funded accounts, so it holds no ETH. */
export const SAFE_DELEGATE_INDEX = 20;
const SAFE_FUNDING = { eth: '100', usdc: '100000' };

export interface SafeContracts {
	/** SafeL2 1.4.1 (emits every execution's parameters, which the stand-in reads back). */
	singleton: string;
	proxyFactory: string;
	fallbackHandler: string;
	multiSend: string;
	multiSendCallOnly: string;
}

export interface SafeFixture {
	address: string;
	chainId: string;
	threshold: number;
	owners: DevnetWallet[];
	/** A proposer registered with the stand-in: not an owner, no funds. */
	delegate: DevnetWallet;
	contracts: SafeContracts;
	/** What the Safe received at start: ETH in wei and USDC in base units. */
	funding: { eth: string; usdc: string };
}

export function safeDelegateWallet(): DevnetWallet {
	const wallet = HDNodeWallet.fromPhrase(
		DEVNET_MNEMONIC,
		undefined,
		`m/44'/60'/0'/0/${SAFE_DELEGATE_INDEX}`,
	);
	return { address: wallet.address, privateKey: wallet.privateKey };
}

/**
 * Deploys Safe 1.4.1 (SafeL2 singleton, proxy factory, fallback handler, MultiSend and
 * MultiSendCallOnly) from account 0 after the other fixtures, creates the 2-of-3 Safe through the
 * factory and funds it with ETH and USDC: the same addresses on every start.
 */
export async function deploySafeFixture(
	chain: LocalChain,
	fixtures: Fixtures,
): Promise<SafeFixture> {
	const provider = new BrowserProvider(chain.provider as never, Number(chain.chainId), {
		polling: false,
		cacheTimeout: -1,
	});
	const wallets = devnetWallets();
	const deployer = await provider.getSigner(wallets[0].address);
	const singleton = await deploy(deployer, safeArtifact('SafeL2'));
	const factory = await deploy(deployer, safeArtifact('SafeProxyFactory'));
	const handler = await deploy(deployer, safeArtifact('CompatibilityFallbackHandler'));
	const multiSend = await deploy(deployer, safeArtifact('MultiSend'));
	const multiSendCallOnly = await deploy(deployer, safeArtifact('MultiSendCallOnly'));
	const contracts: SafeContracts = {
		singleton: await singleton.getAddress(),
		proxyFactory: await factory.getAddress(),
		fallbackHandler: await handler.getAddress(),
		multiSend: await multiSend.getAddress(),
		multiSendCallOnly: await multiSendCallOnly.getAddress(),
	};

	const owners = SAFE_OWNER_WALLETS.map((index) => wallets[index]);
	const setup = SAFE_INTERFACE.encodeFunctionData('setup', [
		owners.map((owner) => owner.address),
		SAFE_THRESHOLD,
		ZeroAddress,
		'0x',
		contracts.fallbackHandler,
		ZeroAddress,
		0,
		ZeroAddress,
	]);
	const saltNonce = 0;
	const address: string = await factory.createProxyWithNonce.staticCall(
		contracts.singleton,
		setup,
		saltNonce,
	);
	await send(factory.createProxyWithNonce(contracts.singleton, setup, saltNonce));

	const eth = parseUnits(SAFE_FUNDING.eth, 18);
	const usdc = parseUnits(SAFE_FUNDING.usdc, fixtures.tokens.USDC.decimals);
	await send(deployer.sendTransaction({ to: address, value: eth }));
	const token = new Contract(
		fixtures.tokens.USDC.address,
		['function transfer(address,uint256) returns (bool)'],
		deployer,
	);
	await send(token.transfer(address, usdc));

	return {
		address,
		chainId: chain.chainId,
		threshold: SAFE_THRESHOLD,
		owners,
		delegate: safeDelegateWallet(),
		contracts,
		funding: { eth: String(eth), usdc: String(usdc) },
	};
}
